"""A class's grading: who is who (folders, roster), points, late work, overrides, the CSV, the
LMS files, Gradescope, nbgrader's gradebook, the pages handed back, and the class benchmark."""
