"""The command line: one Typer module per command group, joined in app.py."""

COMPLETE = "_CWX_COMPLETE"  # set when a shell's completion script asks (cli/completion.py)
