# Python 3.12-only syntax (PEP 695, PEP 701); checked against CPython 3.12.
type Point = tuple[float, float]
type ListOrSet[T] = list[T] | set[T]


class Box[T: (int, str), *Ts, **P]:
    def get[S](self, x: S) -> T:
        return f"{x["key"]}: {f"{f"{x!r:>{10}}"}"}"


def first[T](xs: list[T]) -> T:
    songs = ["a", "b"]
    print(f"{"\n".join(songs)}")
    print(f"{x = }", f'{x:{"<"}{10}}', rf"\d{x}")
    match xs:
        case [y, *_] if y:
            return y
        case {"k": v, **rest}:
            pass
    return xs[0]
