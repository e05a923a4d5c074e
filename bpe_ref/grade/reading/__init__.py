"""Reading a submission without running it: its cells as plain Python (source.py), which course
workbook it is (course_copy.py: from the course's own files, never the submission's metadata), and
each exercise's code for the similarity report (learner_code.py)."""
