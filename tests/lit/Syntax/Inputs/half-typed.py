def f():
    T.copy(A[by *

def g():
    return 1
