"""Dice: general notation through d20, W6 checks (Proben) and the Telperinquár rolls."""
