"""The shipped named rule sets, one TOML file each (`beastodds rules` lists them)."""
