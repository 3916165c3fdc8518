// Counts every allocation of the process it is preloaded into
// (LD_PRELOAD=libGesturesAllocationCounter.so): malloc, calloc, realloc,
// posix_memalign, aligned_alloc, memalign, valloc. `gestures bench` re-runs
// itself with it to report heap allocations per frame; nothing links it.
#ifndef GESTURES_ALLOCATION_COUNTER_H
#define GESTURES_ALLOCATION_COUNTER_H

#include <stddef.h>

/// The allocations counted since the process started.
unsigned long long gestures_allocation_count(void);

/// The bytes those allocations asked for.
unsigned long long gestures_allocated_bytes(void);

#endif
