"""The trace building blocks, for any page that records a LangGraph run: the table and panels
(view.py), the stepper (stepping.py), the headline (verdict.py); the Trace page's forks and
share link."""
