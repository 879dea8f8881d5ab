"""The Trace page's pieces: a row's panels and output (view.py), its stepper and detail
(stepping.py), forks (fork.py) and the share link (share.py)."""
