"""Who wrote the same code: fingerprints that survive renaming (fingerprint.py), the report per
exercise (report.py), its part of the class page (page.py), and how often it is right (labels.py,
on copies disguised by disguise.py; bench.py for its time)."""
