#ifndef HEARTH_CLEVELDB_SHIM_H
#define HEARTH_CLEVELDB_SHIM_H
#include <leveldb/c.h>
#endif
