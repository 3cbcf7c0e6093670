"""The Director's resolutions (Art. 18): a register of rulings on what the rules do not cover."""
