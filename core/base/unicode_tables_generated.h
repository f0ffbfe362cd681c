// The code point ranges of Python 3.11's classes (Unicode 14) that unicode.h tests against,
// defined in unicode_tables_generated.cpp, which tools/gen_unicode_tables.py writes.
#pragma once

#include <cstddef>

namespace stackline::unicode {

struct CodePointRange {
    char32_t first;
    char32_t last;
};

extern const CodePointRange kWordRanges[];
extern const std::size_t kWordRangesSize;
extern const CodePointRange kSpaceRanges[];
extern const std::size_t kSpaceRangesSize;
extern const CodePointRange kNonPrintableRanges[];
extern const std::size_t kNonPrintableRangesSize;
extern const CodePointRange kDecimalZeroRanges[];
extern const std::size_t kDecimalZeroRangesSize;

}  // namespace stackline::unicode
