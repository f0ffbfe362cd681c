// The one-letter escapes that JSON strings and Python string literals share.
#pragma once

namespace stackline {

// The control character \b \f \n \r or \t stands for, given the letter after the backslash; 0 for
// any other letter.
constexpr char controlEscape(char letter) {
    switch (letter) {
        case 'b':
            return '\b';
        case 'f':
            return '\f';
        case 'n':
            return '\n';
        case 'r':
            return '\r';
        case 't':
            return '\t';
        default:
            return 0;
    }
}

}  // namespace stackline
