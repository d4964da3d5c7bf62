// Input of fragment-layout-record.mlir: the same kernel without a record.
tile.func @unrecorded(%X: !tile.buffer<[64, 64], f32, global>, %Y: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %X to %s : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %s to %Y : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}
