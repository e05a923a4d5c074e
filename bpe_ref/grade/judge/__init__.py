"""The parent's judging: each exercise's cases, reference and known bugs (exercises/), the engine
that compares the learner's answers with the reference's, the hints (diagnosis.py), and the
layouts learner code comes in (module, minbpe or CS336 classes), and the score of its verdicts
and hints against real learners' true ones (heldout_score.py, for python -m bpe_ref.grade.heldout).
Nothing here runs learner code except checks.py, the in-notebook check, which runs in the
learner's own kernel."""
