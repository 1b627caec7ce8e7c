// swift-tools-version:5.9
import PackageDescription

// Layers, inner to outer: DeskDomain (records, rules, no I/O) ← DeskStorage (SQLite)
// ← DeskCommands (command line) ← circdesk (entry point). System libraries come in
// through module maps; nothing is fetched.
let package = Package(
  name: "CirculationDesk",
  products: [
    .executable(name: "circdesk", targets: ["circdesk"]),
    .executable(name: "circdesk-bench", targets: ["circdesk-bench"]),
    .executable(name: "circdesk-zxing", targets: ["circdesk-zxing"]),
  ],
  targets: [
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    .target(name: "DeskDomain"),
    .target(
      name: "DeskAssets",
      path: "Assets",
      exclude: ["README.md"],
      resources: [
        .embedInCode("demo/books.tsv"),
        .embedInCode("demo/readers.tsv"),
        .embedInCode("demo/loans.tsv"),
      ]
    ),
    .target(name: "DeskStorage", dependencies: ["CSQLite", "DeskDomain"]),
    .target(name: "DeskWords", dependencies: ["DeskDomain", "DeskStorage", "DeskExchange", "DeskSync"]),
    .target(
      name: "DeskUI",
      dependencies: [
        "DeskDomain", "DeskStorage", "DeskWords", "DeskScanning", "DeskLookup", "DeskExchange", "DeskSync",
      ]),
    .target(name: "CDeskTerminal", linkerSettings: [.linkedLibrary("ncursesw")]),
    .target(name: "DeskTerminal", dependencies: ["CDeskTerminal", "DeskUI"]),
    .target(
      name: "DeskCommands",
      dependencies: [
        "DeskDomain", "DeskStorage", "DeskWords", "DeskAssets", "DeskScanning", "DeskLookup", "DeskExchange",
        "DeskSync", "DeskKiosks",
      ]),
    .executableTarget(
      name: "circdesk",
      dependencies: ["DeskCommands", "DeskTerminal", "DeskUI", "DeskLookup"],
      // A statically linked standard library starts several times faster than a
      // dynamically loaded one; the desk is started often from scripts.
      linkerSettings: [.unsafeFlags(["-static-stdlib"])]
    ),
    // System libraries loaded when first used (zbar, qrencode, libcurl, libpq): a start links
    // SQLite, ncurses, libpng and libjpeg only.
    .target(name: "CLazyLibrary"),
    .target(
      name: "CImaging", dependencies: ["CLazyLibrary"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("m")]
    ),
    .target(name: "DeskScanning", dependencies: ["CImaging", "DeskDomain"]),
    // ZXing, the second decoder, behind a C interface; run only in its own process
    // (`circdesk-zxing`), so that its crash never takes the desk down.
    .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),
    .executableTarget(
      name: "circdesk-zxing", dependencies: ["CZXing", "CImaging"],
      // As the desk: no Swift runtime to find at run time, in a build or in the package.
      linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
    // libcurl, loaded at the first look-up (`http.c`).
    .target(name: "CHTTP", dependencies: ["CLazyLibrary"]),
    .target(name: "DeskExchange", dependencies: ["DeskDomain", "DeskStorage"]),
    // YAZ's ZOOM (Z39.50 and SRU), loaded at the first copy-cataloguing search (`yaz.c`).
    .target(
      name: "CYaz", dependencies: ["CLazyLibrary"],
      cSettings: [.unsafeFlags(["-I/usr/include/libxml2"]), .define("YAZ_HAVE_XML2", to: "1")]),
    .target(name: "DeskLookup", dependencies: ["CHTTP", "CYaz", "DeskDomain", "DeskStorage"]),
    // The central PostgreSQL server the desks of one library share; libpq is loaded when the
    // first connection is made (`cpq_load`).
    .target(name: "CPostgres", dependencies: ["CLazyLibrary"]),
    .target(name: "DeskSync", dependencies: ["CPostgres", "DeskDomain", "DeskStorage"]),
    // Self-check kiosks: the SIP2 server on a library file; libargon2 (kiosk passwords) and
    // libssl (TLS) are loaded when first used.
    .target(name: "CArgon2", dependencies: ["CLazyLibrary"]),
    .target(name: "CTLS", dependencies: ["CLazyLibrary"]),
    .target(name: "DeskKiosks", dependencies: ["CArgon2", "CTLS", "DeskDomain", "DeskStorage"]),
    .target(
      name: "DeskBenchmark",
      dependencies: [
        "DeskDomain", "DeskStorage", "DeskUI", "DeskScanning", "CImaging", "DeskExchange", "DeskSync", "CDeskTerminal",
        "DeskKiosks", "DeskScratch",
      ]),
    // The benchmark starts a throwaway PostgreSQL server for the sync figures, as the tests do.
    .executableTarget(
      name: "circdesk-bench", dependencies: ["DeskBenchmark", "DeskDomain", "DeskStorage", "DeskScratch"]),
    // Scratch folders, child programs and a throwaway PostgreSQL server: what the benchmark and
    // the tests share. Never linked into the program.
    .target(name: "DeskScratch"),
    // Helpers of the test targets alone.
    .target(
      name: "DeskTestSupport", dependencies: ["DeskDomain", "DeskStorage", "DeskExchange", "DeskWords", "DeskScratch"],
      path: "Tests/DeskTestSupport"),
    .testTarget(name: "DeskDomainTests", dependencies: ["DeskDomain", "DeskWords"]),
    .testTarget(name: "DeskStorageTests", dependencies: ["DeskStorage", "DeskDomain", "DeskTestSupport"]),
    .testTarget(
      name: "DeskExchangeTests",
      dependencies: ["DeskExchange", "DeskCommands", "DeskStorage", "DeskDomain", "DeskWords", "DeskTestSupport"],
      exclude: ["Golden", "Fixtures", "Tools"]
    ),
    .testTarget(
      name: "DeskSyncTests",
      dependencies: ["DeskSync", "DeskStorage", "DeskDomain", "DeskWords", "DeskBenchmark", "DeskTestSupport"]),
    .testTarget(
      name: "DeskKiosksTests", dependencies: ["DeskKiosks", "DeskStorage", "DeskDomain", "DeskTestSupport"]),
    .testTarget(
      name: "DeskLookupTests", dependencies: ["DeskLookup", "DeskStorage", "DeskDomain", "DeskTestSupport"]
    ),
    .testTarget(
      name: "DeskScanningTests", dependencies: ["DeskScanning", "CImaging", "DeskDomain", "DeskTestSupport"]
    ),
    .testTarget(
      name: "DeskUITests",
      dependencies: [
        "DeskUI", "DeskTerminal", "DeskStorage", "DeskDomain", "DeskLookup", "DeskSync", "DeskScanning",
        "DeskTestSupport",
      ],
      exclude: ["Golden"]
    ),
    // Tests that run the `circdesk` program find it in the build folder: `swift build
    // --build-tests` (scripts/test) builds it. A dependency on the executable target would pull
    // its static-stdlib link flags into the test bundle, which links Foundation.
    .testTarget(
      name: "DeskCommandsTests",
      dependencies: [
        "DeskCommands", "DeskStorage", "DeskDomain", "DeskSync", "DeskWords", "DeskAssets", "DeskBenchmark",
        "DeskTestSupport",
      ],
      exclude: ["Golden"]
    ),
  ]
)
