import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One `routemap serve` per SQLite file. A second server on the same file would serve its bills
/// from its own memory, which never learns of the first's writes (they stay correct, the
/// reads do not). So `serve` takes an exclusive `flock(2)` on the database file before it opens
/// it, held until the process exits; a second one stops with one line. The commands meant to
/// run beside a server (`devices`, `menu`, `backup`, `migrate --dry-run`) take no such lock,
/// and `flock` locks do not touch SQLite's own (`fcntl`) locks. Several nodes run on PostgreSQL.
enum ServerFileLock {
    /// Takes the lock on the file at `path` (created empty when missing: SQLite reads an empty
    /// file as a new database), and returns whether it created the file. Exits 75
    /// (`EX_TEMPFAIL`) when another process holds it, 1 when the file cannot be opened.
    @discardableResult
    static func take(_ path: String) throws -> Bool {
        var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        let created = descriptor >= 0
        if !created, errno == EEXIST { descriptor = open(path, O_RDWR | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw refusal("cannot open the database \(path): \(String(cString: strerror(errno)))", exitStatus: 1)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            let why =
                reason == EWOULDBLOCK
                ? "another routemap serve is using \(path): run one server per database file (several nodes run on PostgreSQL)"
                : "cannot lock the database \(path): \(String(cString: strerror(reason)))"
            throw refusal(why, exitStatus: 75)  // EX_TEMPFAIL
        }
        // The descriptor stays open, and the lock held, until the process exits.
        return created
    }

    /// Removes the file at `path` if it is still empty: what `take` created for a start-up that
    /// then failed (its migrations could not be read, say), so no stray file is left that the
    /// other commands would refuse as not a routemap database.
    static func removeIfEmpty(_ path: String) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
