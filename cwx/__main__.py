from cwx.cli.main import main

main()
