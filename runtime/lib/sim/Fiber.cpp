//===- Fiber.cpp - Stackful coroutines of the simulator -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Fiber.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace tlc::runtime::sim;

/// How much of the top of a stack reset() fills with 0xFF.
static constexpr size_t kPoisonBytes = 16 << 10;

#if defined(__x86_64__)
// void tlc_sim_fiber_switch(void **saveSp, void *loadSp): pushes the
// callee-saved registers and the floating-point control state on the
// current stack, stores the stack pointer in *saveSp, and pops the same
// from loadSp. A new fiber's stack is laid out so that the pops land in
// tlc_sim_fiber_start with the entry in r12 and its argument in r13.
asm(R"(
  .text
  .globl tlc_sim_fiber_switch
  .hidden tlc_sim_fiber_switch
  .type tlc_sim_fiber_switch, @function
tlc_sim_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tlc_sim_fiber_switch, .-tlc_sim_fiber_switch

  .globl tlc_sim_fiber_start
  .hidden tlc_sim_fiber_start
  .type tlc_sim_fiber_start, @function
tlc_sim_fiber_start:
  movq %r13, %rdi
  callq *%r12
  ud2
  .size tlc_sim_fiber_start, .-tlc_sim_fiber_start
)");
extern "C" void tlc_sim_fiber_switch(void **saveSp, void *loadSp);
extern "C" void tlc_sim_fiber_start();
#endif

Fiber::Fiber(size_t stackBytes) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  stackSize = (stackBytes + page - 1) / page * page;
  mappingSize = stackSize + page;
  void *m = mmap(nullptr, mappingSize, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return;
  mapping = static_cast<char *>(m);
  mprotect(mapping, page, PROT_NONE); // overflow faults instead of corrupting
  stack = mapping + page;
}

Fiber::Fiber(char *stack, size_t stackBytes)
    : stack(stack), stackSize(stackBytes) {}

Fiber::~Fiber() {
  if (mapping)
    munmap(mapping, mappingSize);
}

Fiber Fiber::forCurrentThread() { return Fiber(); }

#if defined(__x86_64__)
void Fiber::reset(void (*entry)(void *), void *arg) {
  // Registers and local arrays start as all-ones bytes (NaN in every float
  // type), not as what the previous thread left there.
  size_t poison = std::min<size_t>(stackSize, kPoisonBytes);
  std::memset(stack + stackSize - poison, 0xFF, poison);
  auto top = reinterpret_cast<uintptr_t>(stack + stackSize) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 64);
  uint32_t mxcsr;
  uint16_t fcw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fcw));
  frame[0] = uint64_t(mxcsr) | (uint64_t(fcw) << 32);
  frame[1] = 0;                                 // r15
  frame[2] = 0;                                 // r14
  frame[3] = reinterpret_cast<uint64_t>(arg);   // r13
  frame[4] = reinterpret_cast<uint64_t>(entry); // r12
  frame[5] = 0;                                 // rbx
  frame[6] = 0;                                 // rbp
  frame[7] = reinterpret_cast<uint64_t>(&tlc_sim_fiber_start);
  sp = frame;
}

void Fiber::switchFrom(Fiber &from) { tlc_sim_fiber_switch(&from.sp, sp); }
#else
void Fiber::trampoline(unsigned hi, unsigned lo) {
  auto *self = reinterpret_cast<Fiber *>((uintptr_t(hi) << 32) | lo);
  self->entry(self->arg);
}

void Fiber::reset(void (*e)(void *), void *a) {
  size_t poison = std::min<size_t>(stackSize, kPoisonBytes);
  std::memset(stack + stackSize - poison, 0xFF, poison);
  entry = e;
  arg = a;
  getcontext(&context);
  context.uc_stack.ss_sp = stack;
  context.uc_stack.ss_size = stackSize;
  context.uc_link = nullptr;
  auto self = reinterpret_cast<uintptr_t>(this);
  makecontext(&context, reinterpret_cast<void (*)()>(&trampoline), 2,
              unsigned(self >> 32), unsigned(self));
}

void Fiber::switchFrom(Fiber &from) { swapcontext(&from.context, &context); }
#endif
