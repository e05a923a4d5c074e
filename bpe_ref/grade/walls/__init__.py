"""The sandbox's walls and the parent's end of its pipe: bubblewrap's folders and limits
(isolation.py), and starting, calling and restarting one worker per submission (sandbox.py)."""
