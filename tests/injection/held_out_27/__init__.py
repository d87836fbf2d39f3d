"""A blind team's held-out domains (issue 54): see tests/test_held_out_third.py."""
