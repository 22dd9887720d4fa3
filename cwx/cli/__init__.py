"""The command line: one Typer module per command group, joined in app.py."""
