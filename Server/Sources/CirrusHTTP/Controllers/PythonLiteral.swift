/// Bmob's Python SDK (bmobpy) sends `having` as `str(dict)`: a Python literal such as
/// `{'_count': {'$gt': 1}, 'ok': True}`, not JSON. This rewrites such a literal into JSON text: single-quoted
/// strings become double-quoted (escaping the quotes and backslashes they hold), and `True`, `False` and `None`
/// outside strings become `true`, `false` and `null`. Text that is already JSON is not passed here.
enum PythonLiteral {
    static func json(from literal: String) -> String {
        var output = ""
        var quote: Character?
        var escaped = false
        var word = ""
        func flushWord() {
            switch word {
            case "True": output += "true"
            case "False": output += "false"
            case "None": output += "null"
            default: output += word
            }
            word = ""
        }
        for character in literal {
            if let open = quote {
                if escaped {
                    output.append(character == "'" ? "'" : "\\" + String(character))
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    output.append("\"")
                    quote = nil
                } else {
                    output += character == "\"" ? "\\\"" : String(character)
                }
            } else if character == "'" || character == "\"" {
                flushWord()
                quote = character
                output.append("\"")
            } else if character.isLetter {
                word.append(character)
            } else {
                flushWord()
                output.append(character)
            }
        }
        flushWord()
        return output
    }
}
