import CirrusMigration
import CirrusStorage
import Testing

@Suite("Imported file keys")
struct ImportedFileKeyTests {
    @Test("a key storages accept is kept as it is")
    func validKeyIsKept() {
        #expect(ImportedFileKey.make(from: "a1B2.c3_d-4.png") == "a1B2.c3_d-4.png")
    }

    @Test(
        "a key storages refuse becomes a valid key, stable across runs and different for different originals",
        arguments: ["gamemaster/abc.png", "gamemaster/abc_png", "中文.txt", "/", "a b", String(repeating: "x/", count: 150)]
    )
    func invalidKeyBecomesValid(original: String) {
        let key = ImportedFileKey.make(from: original)
        #expect(FileKey.isValid(key))
        #expect(ImportedFileKey.make(from: original) == key)
        #expect(ImportedFileKey.make(from: original + "x") != key)
    }
}
