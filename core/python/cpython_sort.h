// Python's sorted(items, key=...) for keys that are Python numbers, in the order CPython gives.
// Without NaN, `<` is a strict weak order on the keys and any stable sort gives Python's result.
// With NaN (every comparison with it is false) the result depends on the algorithm: below 64
// items CPython's timsort is one run (count_run; a strictly descending one is reversed) extended
// by a binary insertion sort, which this follows step by step. Longer lists with NaN get a stable
// sort, which may order them differently from CPython.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "python/python_values.h"

namespace stackline {

inline bool pyIsNan(const PyNum& n) {
    return n.kind == PyNum::Kind::Float && std::isnan(n.f);
}

// key(item) returns the item's PyNum (by value or const reference).
template <class T, class Key>
void cpythonSort(std::vector<T>& items, Key key) {
    auto less = [&](const T& a, const T& b) { return pyLess(key(a), key(b)); };
    std::size_t n = items.size();
    if (n >= 64 ||
        std::none_of(items.begin(), items.end(), [&](const T& i) { return pyIsNan(key(i)); })) {
        std::stable_sort(items.begin(), items.end(), less);
        return;
    }
    if (n < 2) return;
    std::size_t run = 2;
    if (less(items[1], items[0])) {
        while (run < n && less(items[run], items[run - 1])) ++run;
        std::reverse(items.begin(), items.begin() + std::ptrdiff_t(run));
    } else {
        while (run < n && !less(items[run], items[run - 1])) ++run;
    }
    for (std::size_t i = run; i < n; ++i) {
        T pivot = items[i];
        std::size_t l = 0, r = i;
        while (l < r) {
            std::size_t m = l + ((r - l) >> 1);
            if (less(pivot, items[m]))
                r = m;
            else
                l = m + 1;
        }
        std::move_backward(items.begin() + std::ptrdiff_t(l), items.begin() + std::ptrdiff_t(i),
                           items.begin() + std::ptrdiff_t(i) + 1);
        items[l] = pivot;
    }
}

}  // namespace stackline
