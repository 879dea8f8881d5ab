"""A Report on screen: its verdict, error table and exports, and where an error sits in the text."""
