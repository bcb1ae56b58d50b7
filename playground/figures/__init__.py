"""Result -> Plotly figure, one module per demo; imports plotly, never torch.

A package rather than one figures.py: five demos' figures would make one file of
1,000+ lines, and one module per demo keeps each layer of a demo in its own file.
"""
