"""cwx: a command-line companion for the ClockWorx and Color Wheel mechanics."""

__version__ = "0.1.0"
