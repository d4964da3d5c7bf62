x = 1

def f():
    s = """
    doc
    """
    return s
if a:
    pass
else:
    pass
y = (1,
     2)
class C:
    z = f"{x}"
