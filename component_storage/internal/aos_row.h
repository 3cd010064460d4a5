// Internal to //component_storage: the row of an AoS contiguous buffer
// (contiguous_buffer_chunk.h with .aos()): where each component sits in a
// row, and the accessor that indexes rows by entity index. Components are
// laid out in declaration order, each at its alignment; the row is padded to
// the largest alignment, so rows can follow each other in one array.
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_AOS_ROW_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_AOS_ROW_H_

#include <cstddef>
#include <new>

#include "base/internal/standard_parts.h"

namespace strata::chunk_internal {

template <std::size_t N>
struct row_layout {
  std::size_t offsets[N];
  std::size_t size;
  std::size_t align;
};

template <typename... Ts>
constexpr row_layout<sizeof...(Ts)> compute_row_layout() {
  constexpr std::size_t sizes[] = {sizeof(Ts)...};
  constexpr std::size_t aligns[] = {alignof(Ts)...};
  row_layout<sizeof...(Ts)> result{};
  std::size_t offset = 0;
  std::size_t align = 1;
  for (std::size_t k = 0; k < sizeof...(Ts); ++k) {
    offset = (offset + aligns[k] - 1) / aligns[k] * aligns[k];
    result.offsets[k] = offset;
    offset += sizes[k];
    align = std::max(align, aligns[k]);
  }
  result.size = (offset + align - 1) / align * align;
  result.align = align;
  return result;
}

// `a[slot]` is the T of the row at `slot`: rows of Stride bytes, T at
// Offset in each (both compile-time constants, so indexing is one
// multiply-add).
template <typename T, std::size_t Offset, std::size_t Stride>
struct aos_accessor {
  std::byte* rows;
  T& operator[](std::size_t slot) const noexcept {
    return *std::launder(reinterpret_cast<T*>(rows + slot * Stride + Offset));
  }
};

}  // namespace strata::chunk_internal

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_AOS_ROW_H_
