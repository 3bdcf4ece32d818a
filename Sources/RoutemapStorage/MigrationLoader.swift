import Foundation

/// Reads migrations from a directory of `NNNN_name.sql` files.
public enum MigrationLoader {
    /// The migrations in `directory`, sorted by number.
    ///
    /// Files not ending in `.sql` (a README, editor files) are ignored. Throws
    /// ``StorageError/invalidMigrationName(file:)`` for a `.sql` file not named `NNNN_name.sql`,
    /// ``StorageError/duplicateMigration(number:files:)`` when two files share a number,
    /// ``StorageError/noMigrations(directory:)`` when there is none, and
    /// ``StorageError/cannotReadMigrations(path:underlying:)`` when the directory or a file (as
    /// UTF-8) cannot be read.
    public static func load(directory: URL) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw StorageError.cannotReadMigrations(path: directory.path, underlying: error)
        }
        var filesByNumber: [String: [String]] = [:]
        for name in names where name.hasSuffix(".sql") {
            guard let number = migrationNumber(ofFile: name) else { throw StorageError.invalidMigrationName(file: name) }
            filesByNumber[number, default: []].append(name)
        }
        if let (number, files) = filesByNumber.filter({ $0.value.count > 1 }).min(by: { $0.key < $1.key }) {
            throw StorageError.duplicateMigration(number: number, files: files.sorted())
        }
        guard !filesByNumber.isEmpty else { throw StorageError.noMigrations(directory: directory.path) }
        return try filesByNumber.keys.sorted().map { number in
            let file = filesByNumber[number]![0]
            let url = directory.appendingPathComponent(file)
            let sql: String
            do {
                sql = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw StorageError.cannotReadMigrations(path: url.path, underlying: error)
            }
            return Migration(id: String(file.dropLast(".sql".count)), sql: sql)
        }
    }

    /// The four-digit number of `NNNN_name.sql`, or `nil` if the name has another shape.
    static func migrationNumber(ofFile file: String) -> String? {
        let characters = Array(file.utf8)
        let suffix = Array(".sql".utf8)
        guard characters.count > 4 + 1 + suffix.count, characters.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        let digits = characters[0..<4]
        let name = characters[5..<(characters.count - suffix.count)]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            characters[4] == UInt8(ascii: "_"),
            name.allSatisfy({ isNameCharacter($0) })
        else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }
}
