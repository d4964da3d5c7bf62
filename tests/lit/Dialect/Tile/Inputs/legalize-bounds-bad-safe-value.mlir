// A safe value that is not a number (tile-legalize-bounds.mlir runs this):
// an error at the annotation, and the function is not lowered.
// BAD: error: T.annotate_safe_value: the safe value of 'A' must be a number, not 'B'
// BAD: tile.func @bad({{.*}}) attributes {tile.lowering_failed}
// BAD-NOT: tile.bounds
tile.func @bad(%A: !tile.buffer<[150], f32, global> loc("A"), %B: !tile.buffer<[150], f32, global> loc("B")) {
  tile.kernel (%bx) grid [3] threads [64] {
    tile.intrinsic "T.annotate_safe_value"() {options = {safe_value_map = "{A: B}"}} : () -> ()
    tile.parallel (%i) in [64] {
      %v = tile.load %A[%i] : !tile.buffer<[150], f32, global>
    }
  }
}
