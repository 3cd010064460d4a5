#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::system_signature::make;

#include "component_storage/component_signature.h"
struct unstored {};
constexpr auto components = strata::component_signatures(
    strata::component_signature::make(tag<position>, tag<velocity>));
constexpr auto systems = strata::system_signatures(
    make(tag<a>).read(tag<velocity>).write(tag<position>),
    make(tag<b>).read(tag<unstored>));
constexpr bool checked =
    (strata::check_components_stored(components, systems), true);
