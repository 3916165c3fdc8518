// Counting wrappers around glibc's allocator, for LD_PRELOAD. They forward to
// glibc's own entry points (__libc_malloc, ...), so no dlsym is needed and
// nothing here allocates. Counters are relaxed atomics: totals, not order.
#define _GNU_SOURCE
#include "AllocationCounter.h"

#include <errno.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

static unsigned long long allocations;
static unsigned long long bytes;

static inline void count(size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, size, __ATOMIC_RELAXED);
}

unsigned long long gestures_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
unsigned long long gestures_allocated_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count(size);
    return __libc_valloc(size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
