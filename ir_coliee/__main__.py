from ir_coliee.cli import command

command()
