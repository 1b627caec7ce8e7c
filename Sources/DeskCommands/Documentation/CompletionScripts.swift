/// Shell completion scripts, made from the commands' declarations: the commands and
/// subcommands, each command's options, and for an option's value the words it takes, files or
/// folders.
enum CompletionScripts {
  enum Shell: String, CaseIterable {
    case bash, fish, zsh
  }

  static func script(for shell: Shell, catalogue: CommandCatalogue = .program) -> String {
    switch shell {
    case .bash: bash(catalogue)
    case .fish: fish(catalogue)
    case .zsh: zsh(catalogue)
    }
  }

  /// The options of the program without a command: the desk's and the program's own.
  static func rootOptions(_ catalogue: CommandCatalogue) -> [CommandSpec.Option] {
    catalogue.desk.options + RootCommand.programOptions
  }

  /// The names of the options that take a value, for each command ('' the program without one):
  /// the word after one is its value, not a command or an argument.
  static func valueOptions(_ catalogue: CommandCatalogue) -> [(path: String, names: [String])] {
    func names(_ options: [CommandSpec.Option]) -> [String] {
      options.filter { $0.completion != .none }.flatMap(\.names)
    }
    return [("", names(rootOptions(catalogue)))] + catalogue.specs.map { ($0.path, names($0.options)) }
  }

  /// The words after which a subcommand's word comes: each group (`book`), and the first words of
  /// a longer path within one (`sip2 account`).
  static func groups(_ catalogue: CommandCatalogue) -> [String] {
    var groups: [String] = []
    for entry in catalogue.entries where entry.specs.count > 1 || entry.specs.first?.path != entry.name {
      groups.append(entry.name)
      for spec in entry.specs {
        let words = spec.path.split(separator: " ")
        for count in 2..<max(2, words.count) {
          let prefix = words.prefix(count).joined(separator: " ")
          if !groups.contains(prefix) { groups.append(prefix) }
        }
      }
    }
    return groups
  }

  /// The words that may follow `group`, each with what it does: a command's last word, or the
  /// next word of longer paths (described by the commands it leads to).
  static func nextWords(after group: String, _ catalogue: CommandCatalogue) -> [(
    word: String, abstract: String
  )] {
    var next: [(word: String, abstract: String)] = []
    for spec in catalogue.specs where spec.path.hasPrefix(group + " ") {
      let rest = spec.path.dropFirst(group.count + 1).split(separator: " ")
      guard let word = rest.first.map(String.init), !next.contains(where: { $0.word == word }) else { continue }
      let abstract =
        rest.count == 1
        ? spec.abstract
        : catalogue.specs.filter { $0.path.hasPrefix(group + " " + word + " ") }.map {
          String($0.path.split(separator: " ").last ?? "")
        }.joined(separator: ", ")
      next.append((word, abstract))
    }
    return next
  }

  /// Words a shell takes as they are inside single quotes.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingAll("'", with: "'\\''") + "'"
  }

  // MARK: bash

  private static func bash(_ catalogue: CommandCatalogue) -> String {
    var lines = [
      "# bash completion for circdesk, made by `circdesk --generate-completion-script bash`.",
      "# The options of a command that take a value.",
      "_circdesk_values() {",
      "  case $1 in",
    ]
    for (path, names) in valueOptions(catalogue) where !names.isEmpty {
      lines.append("    \(quoted(path))) echo \(quoted(names.joined(separator: " "))) ;;")
    }
    lines += [
      "  esac",
      "}",
      "_circdesk() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  local command='' word i skip=0 words='' files=0 pos=0 db='' kinds='' repeat=0",
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      "    word=${COMP_WORDS[i]}",
      "    if ((skip)); then [[ ${COMP_WORDS[i-1]} == --db ]] && db=$word; skip=0; continue; fi",
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
      "  COMPREPLY=()",
      "  case $command in",
    ]
    let rootWords = catalogue.entries.map(\.name) + rootOptions(catalogue).flatMap(\.names)
    lines += bashCase("''", options: rootOptions(catalogue), words: rootWords, files: false)
    for group in groups(catalogue) {
      let subcommands = nextWords(after: group, catalogue).map(\.word)
      lines += bashCase(quoted(group), options: [], words: subcommands + ["--help"], files: false)
    }
    for spec in catalogue.specs {
      let options = spec.options + [CommandSpec.Option("-h, --help", help: "")]
      lines += bashCase(
        quoted(spec.path), options: spec.options, words: options.flatMap(\.names),
        files: spec.arguments.contains(where: \.namesFiles), library: libraryKinds(spec))
    }
    lines += [
      "  esac",
      "  # An argument that is an inventory number or a ticket: the library's, as typed so far.",
      "  if [[ -n $kinds && $cur != -* ]]; then",
      "    local -a each=($kinds)",
      "    local kind=${each[pos]}",
      "    ((pos >= ${#each[@]} && repeat)) && kind=${each[-1]}",
      "    [[ -n $kind && $kind != - ]] && words+=\" $(\"${COMP_WORDS[0]}\" --complete \"$kind\" \"$cur\" ${db:+\"--db=$db\"} 2>/dev/null)\"",
      "  fi",
      "  if ((files)) && [[ $cur != -* ]]; then",
      "    compopt -o filenames 2>/dev/null",
      "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")",
      "  fi",
      "  mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")",
      "}",
      "complete -F _circdesk circdesk",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// One command's branch: what its options' values take, then its words, and the kinds of its
  /// arguments the library completes (`kinds`, `-` for an argument it does not; `repeat` when the
  /// last is repeated).
  private static func bashCase(
    _ pattern: String, options: [CommandSpec.Option], words: [String], files: Bool,
    library: (kinds: [String], repeats: Bool)? = nil
  ) -> [String] {
    var lines = ["    \(pattern))"]
    lines += valueCases(options) { completion in
      switch completion {
      case .none: nil
      case .text: "return"
      case .words(let choices):
        "mapfile -t COMPREPLY < <(compgen -W \(quoted(choices.joined(separator: " "))) -- \"$cur\"); return"
      case .file: "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return"
      case .folder: "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return"
      }
    }
    lines.append(
      "      words=\(quoted(words.joined(separator: " ")))\(files ? "; files=1" : "")\(kindsSet(library)) ;;")
    return lines
  }

  /// The `case $prev in` of bash and zsh: for an option that takes a value, what the shell offers
  /// after it (`reply`, nil for a flag).
  static func valueCases(
    _ options: [CommandSpec.Option], reply: (CommandSpec.Option.ValueCompletion) -> String?
  ) -> [String] {
    let values = options.compactMap { option in
      reply(option.completion).map { "        \(option.names.joined(separator: "|"))) \($0) ;;" }
    }
    return values.isEmpty ? [] : ["      case $prev in"] + values + ["      esac"]
  }

  /// What a branch of bash and zsh sets for the arguments the library completes, if any.
  static func kindsSet(_ library: (kinds: [String], repeats: Bool)?) -> String {
    library.map { "; kinds=\(quoted($0.kinds.joined(separator: " "))); repeat=\($0.repeats ? 1 : 0)" } ?? ""
  }

  /// The kinds of a command's arguments that the library completes, by position (`-` where it
  /// completes none), and whether the last repeats; nil for a command with none.
  static func libraryKinds(_ spec: CommandSpec) -> (kinds: [String], repeats: Bool)? {
    let kinds = spec.arguments.map { LibraryCompletion.Kind(argument: $0.name)?.rawValue ?? "-" }
    guard kinds.contains(where: { $0 != "-" }) else { return nil }
    let last = spec.arguments.last?.count
    return (kinds, last == .oneOrMore || last == .any)
  }

  // MARK: fish

  private static func fish(_ catalogue: CommandCatalogue) -> String {
    var lines = [
      "# fish completion for circdesk, made by `circdesk --generate-completion-script fish`.",
      "# The options of a command that take a value.",
      "function __circdesk_values",
      "    switch \"$argv[1]\"",
    ]
    for (path, names) in valueOptions(catalogue) where !names.isEmpty {
      lines += ["        case \(quoted(path))", "            echo \(names.joined(separator: " "))"]
    }
    lines += [
      "    end",
      "end",
      "# Walks the words typed before the cursor: the command (its words), how many arguments",
      "# follow it, and the library the command line names (--db); left in __circdesk_walked_*.",
      "function __circdesk_walk",
      "    set -g __circdesk_walked_command",
      "    set -g __circdesk_walked_position 0",
      "    set -g __circdesk_walked_db",
      "    set -l skip 0",
      "    set -l previous",
      "    for word in (commandline -opc)[2..-1]",
      "        if test $skip = 1",
      "            test \"$previous\" = --db; and set __circdesk_walked_db $word",
      "            set skip 0",
      "        else",
      "            switch $word",
      "                case '--db=*'",
      "                    set __circdesk_walked_db (string replace -- --db= '' $word)",
      "                case '-*'",
      "                    if contains -- $word (string split ' ' -- (__circdesk_values \"$__circdesk_walked_command\"))",
      "                        set skip 1",
      "                    end",
      "                case '*'",
      "                    if test (count $__circdesk_walked_command) = 0",
      "                        set __circdesk_walked_command $word",
      "                    else if contains -- \"$__circdesk_walked_command\" \(groups(catalogue).map(quoted).joined(separator: " "))",
      "                        set __circdesk_walked_command $__circdesk_walked_command $word",
      "                    else",
      "                        set __circdesk_walked_position (math $__circdesk_walked_position + 1)",
      "                    end",
      "            end",
      "        end",
      "        set previous $word",
      "    end",
      "end",
      "function __circdesk_command",
      "    __circdesk_walk",
      "    echo $__circdesk_walked_command",
      "end",
      "function __circdesk_is",
      "    set -l command (__circdesk_command)",
      "    test \"x$command\" = \"x$argv[1]\"",
      "end",
      "# The library's inventory numbers or tickets for the argument under the cursor: the kinds of",
      "# the command's arguments by position ('-' for none), then 'repeat' when the last repeats.",
      "function __circdesk_library",
      "    set -l repeat $argv[-1]",
      "    set -l kinds $argv[1..-2]",
      "    __circdesk_walk",
      "    set -l pos $__circdesk_walked_position",
      "    set -l db $__circdesk_walked_db",
      "    set -l kind",
      "    if test $pos -lt (count $kinds)",
      "        set kind $kinds[(math $pos + 1)]",
      "    else if test $repeat = repeat",
      "        set kind $kinds[-1]",
      "    end",
      "    test -n \"$kind\" -a \"$kind\" != -; or return",
      "    set -l program (commandline -opc)[1]",
      "    if test -n \"$db\"",
      "        $program --complete $kind (commandline -ct) --db=$db 2>/dev/null",
      "    else",
      "        $program --complete $kind (commandline -ct) 2>/dev/null",
      "    end",
      "end",
      "complete -c circdesk -f",
    ]
    for entry in catalogue.entries {
      lines.append("complete -c circdesk -n \"__circdesk_is ''\" -a \(quoted(entry.name)) -d \(quoted(entry.abstract))")
    }
    lines += fishOptions("", rootOptions(catalogue))
    for group in groups(catalogue) {
      for (word, abstract) in nextWords(after: group, catalogue) {
        lines.append(
          "complete -c circdesk -n \(quoted("__circdesk_is '\(group)'")) -a \(quoted(word)) -d \(quoted(abstract))")
      }
    }
    for spec in catalogue.specs {
      lines += fishOptions(spec.path, spec.options + [CommandSpec.Option("-h, --help", help: "Show this help.")])
      if spec.arguments.contains(where: \.namesFiles) {
        lines.append("complete -c circdesk -n \(quoted("__circdesk_is '\(spec.path)'")) -F")
      }
      if let library = libraryKinds(spec) {
        let call = "(__circdesk_library \(library.kinds.joined(separator: " ")) \(library.repeats ? "repeat" : "once"))"
        lines.append("complete -c circdesk -n \(quoted("__circdesk_is '\(spec.path)'")) -a \(quoted(call))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func fishOptions(_ path: String, _ options: [CommandSpec.Option]) -> [String] {
    options.map { option in
      var words = ["complete -c circdesk -n \(quoted("__circdesk_is '\(path)'"))"]
      for name in option.names {
        words.append(name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())")
      }
      switch option.completion {
      case .none: break
      case .text: words.append("-x")
      case .words(let choices): words += ["-x", "-a", quoted(choices.joined(separator: " "))]
      case .file: words += ["-r", "-F"]
      case .folder: words += ["-x", "-a", "'(__fish_complete_directories)'"]
      }
      words += ["-d", quoted(option.help)]
      return words.joined(separator: " ")
    }
  }
}

extension CommandSpec.Option {
  /// The option's names: `-h, --help` is two.
  var names: [String] {
    name.split(separator: ",").map { String($0.drop(while: { $0 == " " })) }
  }
}
