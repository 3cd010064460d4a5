// Strata: one include for users.
//
//   #include "strata.h"
//   constexpr auto settings = strata::settings()...;
//   auto ctx = strata::make_context(settings);
//
// Brings in the context (settings, proxies, execution adapters), component
// and system signatures, inner-parallelism strategies and the schedulers.
// Each part can also be used on its own through its package's target.
// Left out, so that only programs using it pay to compile it: the hash-map
// chunk (absl::flat_hash_map). A program with `.hash_map()` storage adds
// `#include "component_storage/hash_map_chunk.h"`; the //:strata target
// provides it, and forgetting it is a compile error that names the include.
#ifndef STRATA_STRATA_H_
#define STRATA_STRATA_H_

// First, so that when a rule of a system's code fires, the compiler names
// the header in two lines (meta/diagnostic.h).
#include "context/internal/diagnostics.h"
// The rest.
#include "component_storage/component_signature.h"
#include "context/context.h"
#include "context/execution_adapter.h"
#include "context/settings.h"
#include "meta/tag.h"
#include "scheduler/dag.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/sequential.h"

#endif  // STRATA_STRATA_H_
