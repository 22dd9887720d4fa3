"""The commands: one module a command (`cwx check`) or group of commands (`cwx clock`),
found by its name when it is called (cli/lazy.py); each is thin: it opens its files,
calls one function, saves and renders."""
