// Strata: one include for users.
//
//   #include "strata.h"
//   constexpr auto settings = strata::settings()...;
//   auto ctx = strata::make_context(settings);
//
// Brings in the context (settings, proxies, execution adapters), component
// and system signatures, inner-parallelism strategies and the schedulers.
// Each part can also be used on its own through its package's target.
#ifndef STRATA_STRATA_H_
#define STRATA_STRATA_H_

#include "component_storage/signature.h"
#include "context/context.h"
#include "context/execution_adapter.h"
#include "context/settings.h"
#include "scheduler/dag.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/sequential.h"
#include "settings/tag.h"

#endif  // STRATA_STRATA_H_
