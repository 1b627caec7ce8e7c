extension CompletionScripts {
  /// The zsh script: the same walk over the words as bash's (the command is the group's words up
  /// to a command's last), offering with `compadd`, files with `_files`, folders with `_files -/`.
  /// Installed as `_circdesk` in a folder of `fpath` (autoloaded by `compinit`), or sourced.
  static func zsh(_ catalogue: CommandCatalogue) -> String {
    var lines = [
      "#compdef circdesk",
      "# zsh completion for circdesk, made by `circdesk --generate-completion-script zsh`.",
      "# The options of a command that take a value.",
      "_circdesk_values() {",
      "  case $1 in",
    ]
    for (path, names) in valueOptions(catalogue) where !names.isEmpty {
      lines.append("    \(quoted(path))) print -r -- \(quoted(names.joined(separator: " "))) ;;")
    }
    lines += [
      "  esac",
      "}",
      "_circdesk() {",
      "  local command='' word prev=${words[CURRENT-1]} i skip=0 pos=0 db='' kinds='' repeat=0",
      "  local -a offer",
      "  for ((i = 2; i < CURRENT; i++)); do",
      "    word=${words[i]}",
      "    if ((skip)); then [[ ${words[i-1]} == --db ]] && db=$word; skip=0; continue; fi",
      "    case $word in",
      "      --db=*) db=${word#--db=} ;;",
      "      -*) [[ \" $(_circdesk_values \"$command\") \" == *\" $word \"* ]] && skip=1 ;;",
      "      *)",
      "        if [[ -z $command ]]; then command=$word",
      "        else case $command in \(groups(catalogue).map(quoted).joined(separator: "|"))) command+=\" $word\" ;;",
      "          *) ((pos++)) ;; esac",
      "        fi ;;",
      "    esac",
      "  done",
      "  case $command in",
    ]
    let rootWords = catalogue.entries.map(\.name) + rootOptions(catalogue).flatMap(\.names)
    lines += zshCase("''", options: rootOptions(catalogue), words: rootWords, files: false)
    for group in groups(catalogue) {
      lines += zshCase(
        quoted(group), options: [], words: nextWords(after: group, catalogue).map(\.word) + ["--help"], files: false)
    }
    for spec in catalogue.specs {
      let options = spec.options + [CommandSpec.Option("-h, --help", help: "")]
      lines += zshCase(
        quoted(spec.path), options: spec.options, words: options.flatMap(\.names),
        files: spec.arguments.contains(where: \.namesFiles), library: libraryKinds(spec))
    }
    lines += [
      "  esac",
      "  # An argument that is an inventory number or a ticket: the library's, as typed so far.",
      "  if [[ -n $kinds && $PREFIX != -* ]]; then",
      "    local -a each=(${=kinds})",
      "    local kind=${each[pos+1]}",
      "    ((pos >= $#each && repeat)) && kind=${each[-1]}",
      "    [[ -n $kind && $kind != - ]] && offer+=(${(f)\"$($words[1] --complete $kind \"$PREFIX\" ${db:+\"--db=$db\"} 2>/dev/null)\"})",
      "  fi",
      "  compadd -- $offer",
      "}",
      "# Autoloaded from fpath (as _circdesk) it completes at once; sourced, it ties itself to the",
      "# command when completion is on.",
      "if [[ $funcstack[1] == _circdesk ]]; then",
      "  _circdesk \"$@\"",
      "elif (( $+functions[compdef] )); then",
      "  compdef _circdesk circdesk",
      "fi",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// One command's branch: what its options' values take, then its words (and files, when its
  /// arguments are files).
  private static func zshCase(
    _ pattern: String, options: [CommandSpec.Option], words: [String], files: Bool,
    library: (kinds: [String], repeats: Bool)? = nil
  ) -> [String] {
    var lines = ["    \(pattern))"]
    lines += valueCases(options) { completion in
      switch completion {
      case .none: nil
      case .text: "return"
      case .words(let choices): "compadd -- \(choices.map(quoted).joined(separator: " ")); return"
      case .file: "_files; return"
      case .folder: "_files -/; return"
      }
    }
    lines.append(
      "      offer=(\(words.map(quoted).joined(separator: " ")))\(files ? "; [[ $PREFIX != -* ]] && _files" : "")"
        + "\(kindsSet(library)) ;;")
    return lines
  }
}
