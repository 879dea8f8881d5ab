"""Streamlit building blocks: shell pieces every page uses here, one package per page below."""
