// Every type a context derives from its settings, in one place: component
// and system lists, entity and component storage, the per-system instances.
// Internal: the context, its proxies and the refresh are templated on it.
#ifndef STRATA_CONTEXT_INTERNAL_CONTEXT_TYPES_H_
#define STRATA_CONTEXT_INTERNAL_CONTEXT_TYPES_H_

#include <array>
#include <cstddef>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#include "base/internal/make_object.h"
#include "component_storage/component_storage.h"
#include "context/internal/diagnostics.h"
#include "context/internal/refresh_queue.h"
#include "context/internal/resource_storage.h"
#include "context/resources.h"
#include "context/settings.h"
#include "context/system_instance.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "entity/entity_storage.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"
#include "meta/type_name.h"

namespace strata {

namespace context_internal {

template <typename Types>
class context_core;

}  // namespace context_internal

template <typename Types>
class defer_proxy;
template <typename Types>
class step_proxy;
template <typename Types, std::size_t I>
class data_proxy;

namespace context_internal {

template <typename Types>
class system_runner;

// The system instances of a context, each on the heap, owned as a pointer
// and a function that deletes it (a slot per system id). Not a tuple of
// one owner per system: each element type would bring its own constructor,
// destructor and accessors, compiled once per system; here the only code
// per system is its delete function. Instances are deleted in reverse id
// order.
template <std::size_t N>
class instance_table {
 public:
  using deleter = void (*)(void*) noexcept;

  instance_table() = default;
  instance_table(const instance_table&) = delete;
  instance_table& operator=(const instance_table&) = delete;
  ~instance_table() {
    for (std::size_t i = N; i-- > 0;) {
      if (slots_[i].instance != nullptr) slots_[i].destroy(slots_[i].instance);
    }
  }

  // Takes `instance` (from new, or null) into slot `id`, at most once;
  // `destroy` (delete_instance<T>) deletes it.
  void adopt(std::size_t id, void* instance, deleter destroy) noexcept {
    slots_[id] = {instance, destroy};
  }
  void* get(std::size_t id) const noexcept { return slots_[id].instance; }

  template <typename T>
  static void delete_instance(void* instance) noexcept {
    delete static_cast<T*>(instance);
  }

 private:
  struct slot {
    void* instance = nullptr;
    deleter destroy = nullptr;
  };
  slot slots_[N > 0 ? N : 1] = {};
};

// Room for one object per component type (slot = component id),
// constructed on demand and thrown away at the refresh: what a deferred
// add_component builds for an entity a full limit refused. Type-erased (a
// buffer, allocated at the slot's first use and kept, and a destroy
// function per slot), so only the types a program adds that way cost code,
// not every component type of the context. A reference from emplace stays
// valid until the next emplace into its slot or reset().
template <std::size_t N>
class scratch_slots {
 public:
  scratch_slots() = default;
  scratch_slots(const scratch_slots&) = delete;
  scratch_slots& operator=(const scratch_slots&) = delete;
  ~scratch_slots() {
    reset();
    for (slot& s : slots_) {
      if (s.memory != nullptr) s.release(s.memory);
    }
  }

  template <typename T, typename... Args>
  T& emplace(std::size_t index, Args&&... args) {
    slot& s = slots_[index];
    destroy(s);
    if (s.memory == nullptr) {
      s.memory = ::operator new (sizeof(T), std::align_val_t{alignof(T)});
      s.release = [](void* memory) noexcept {
        ::operator delete (memory, std::align_val_t{alignof(T)});
      };
    }
    T* object = base_internal::construct_object<T>(s.memory,
                                                   std::forward<Args>(args)...);
    s.destroy = [](void* memory) noexcept {
      std::launder(static_cast<T*>(memory))->~T();
    };
    used_ = true;
    return *object;
  }

  void reset() noexcept {
    if (!used_) return;
    for (slot& s : slots_) destroy(s);
    used_ = false;
  }

 private:
  struct slot {
    void* memory = nullptr;
    void (*destroy)(void*) noexcept = nullptr;  // set while an object lives
    void (*release)(void*) noexcept = nullptr;
  };
  static void destroy(slot& s) noexcept {
    if (s.destroy != nullptr) std::exchange(s.destroy, nullptr)(s.memory);
  }

  std::array<slot, N> slots_{};
  bool used_ = false;
};

// What the context's types are keyed by. Settings passed by value are a
// type that lists every signature with every option, and each frame of a
// message about a system's code names the context's types, often more than
// once; named settings (named_settings<settings>) print in a few words.
// Settings that are not named key the types by the closure type of a lambda
// made once per settings type instead: a distinct type for every settings
// type (its mangled name holds them), which compilers print as `<lambda()>`
// (GCC) or its place in this file (Clang). key_settings gives the settings
// back.
template <typename Settings>
inline constexpr auto settings_by_value_key =
    [] { return std::type_identity<Settings>{}; };

template <typename Settings>
struct types_key {
  using type = std::remove_const_t<decltype(settings_by_value_key<Settings>)>;
};
template <const auto& Settings>
struct types_key<named_settings<Settings>> {
  using type = named_settings<Settings>;
};

template <typename Key>
struct key_settings {
  using type = typename decltype(Key{}())::type;
};
template <const auto& Settings>
struct key_settings<named_settings<Settings>> {
  using type = named_settings<Settings>;
};

template <typename Key>
struct context_types {
  using settings_type = typename key_settings<Key>::type;
  using component_list = typename settings_type::component_list_type;
  using system_list = typename settings_type::system_list_type;
  using scheduler_type = typename settings_type::scheduler_type;
  static constexpr bool inner_parallelism_allowed =
      settings_type::inner_parallelism_allowed;
  static constexpr bool trace_enabled = settings_type::trace_enabled;
  static constexpr bool has_hierarchy = settings_type::hierarchy_declared;
  using hierarchy_type = typename settings_type::hierarchy_type;
  static constexpr std::size_t component_count = component_list::count;
  static constexpr std::size_t system_count = system_list::count;
  using bitset_type =
      component_bitset<(component_count > 0 ? component_count : 1)>;
  using metadata_type =
      entity_metadata<(component_count > 0 ? component_count : 1),
                      entity_refresh_flags>;
  using limit_type = typename settings_type::entity_limit_type;
  using entity_storage_type =
      basic_entity_storage<limit_type, entity_traits32, metadata_type>;
  using component_storage_type = component_storage<component_list, limit_type>;
  using resource_storage_type =
      resource_storage<typename settings_type::resource_list_type>;
  using refresh_queue_type = refresh_queue<entity_storage_type>;
  using defer_proxy_type = defer_proxy<context_types>;
  using instances_type = context_internal::instance_table<system_count>;

  static constexpr std::string_view system_name(std::size_t id) {
    constexpr auto names = []<typename... Systems>(type_list<Systems...>) {
      return std::array<std::string_view, sizeof...(Systems)>{
          strata::name_of<Systems>()...};
    }(typename system_list::system_types{});
    return names[id];
  }

  template <typename System>
  static constexpr std::size_t system_id() {
    if constexpr (!system_list::template has_system<System>) {
      diagnostic::report(diagnostic::system_not_in_context<System>);
      return 0;
    } else {
      return system_list::template id_of<System>();
    }
  }
};

// The context's types for these settings (named or not).
template <typename Settings>
using context_types_for = context_types<typename types_key<Settings>::type>;

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_CONTEXT_TYPES_H_
