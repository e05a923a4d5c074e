"""Before BPE: the references of workbooks 01 to 03a (hexadecimal, code points, UTF-8, words)."""
