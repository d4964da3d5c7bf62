"""Block rasterization plans a hint recommends (``T.use_swizzle``)."""


class Rasterization:
    panel_width = None

    def __repr__(self):
        return type(self).__name__


class NoRasterization(Rasterization):
    """Blocks in launch order."""


class Rasterization2DRow(Rasterization):
    """Blocks in panels of ``panel_width`` rows (``T.use_swizzle``)."""

    def __init__(self, panel_width=10):
        self.panel_width = panel_width

    def __repr__(self):
        return f"Rasterization2DRow({self.panel_width})"


class Rasterization2DColumn(Rasterization2DRow):
    def __repr__(self):
        return f"Rasterization2DColumn({self.panel_width})"
