// Event names as the viewer shows them: demangled (core demangledKernelName), shortened in the
// middle where a line must stay short (a template's distinguishing part is often there), and in
// full, with the mangled form, in tooltips that wrap even without spaces.
#pragma once

#include <QString>
#include <string_view>

// The demangled name (the name itself when it is not mangled).
QString displayName(std::string_view name);
// At most maxChars characters: the start and the end with "…" between them.
QString elideMiddle(const QString& text, int maxChars);
// Rich text for a tooltip: the demangled name, and the recorded one when it differs, with break
// opportunities so that thousands of characters without a space wrap.
QString nameToolTip(std::string_view name);
