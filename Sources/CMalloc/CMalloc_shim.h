// glibc's allocator tunables (`mallopt`), which Swift's Glibc module does not import.
// Forwarders only: named constants for the macros Swift does not import.
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

static const int CMALLOC_ARENA_MAX = M_ARENA_MAX;
static const int CMALLOC_TRIM_THRESHOLD = M_TRIM_THRESHOLD;

#endif
