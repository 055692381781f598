import Foundation
import ZIPFoundation

/// The files of an archive an operator loads (an IMDF venue, a GTFS feed) as bytes: read from a
/// zip or a folder within bounds, written to a zip.
public struct ArchiveFiles: Sendable {
    /// Which files count, by how their names end (lower case).
    public var suffixes: [String]
    /// "JSON files", "GTFS tables": what the limits' messages call them.
    public var kind: String
    /// Unpacked, an archive may hold at most this much: a zip bomb is far over it.
    public var maxUnpackedBytes: Int
    public var maxEntries: Int
    /// Named by the last part of their path, for formats whose files belong at the top of the
    /// archive but are often zipped inside a folder.
    public var flatten: Bool

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    func counts(_ path: String) -> Bool {
        let lower = path.lowercased()
        return suffixes.contains { lower.hasSuffix($0) }
    }

    /// The archive's files that count, from a zip (in any folder of it).
    public func unzip(_ data: Data, name: String = "the archive") throws(Failure) -> [(name: String, data: Data)] {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw Failure(description: "\(name) is not a zip archive.")
        }
        var out: [(String, Data)] = []
        var total = 0, entries = 0
        for entry in archive where entry.type == .file {
            let path = entry.path
            guard counts(path) else { continue }
            entries += 1
            guard entries <= maxEntries else { throw Failure(description: "\(name) holds more than \(maxEntries) \(kind).") }
            guard entry.uncompressedSize <= UInt64(maxUnpackedBytes - total) else {
                throw Failure(description: "\(name) unpacks to more than \(maxUnpackedBytes >> 20) MB.")
            }
            var content = Data()
            do {
                _ = try archive.extract(entry) { chunk in
                    // The header's size is the sender's word; what counts is what comes out.
                    guard content.count + chunk.count <= Int(entry.uncompressedSize) else { throw Failure(description: "\(path) is larger than its header says.") }
                    content.append(chunk)
                }
            } catch let f as Failure {
                throw f
            } catch {
                throw Failure(description: "\(path) in \(name) cannot be unpacked (\(error)).")
            }
            total += content.count
            out.append((flatten ? (path as NSString).lastPathComponent : path, content))
        }
        return out
    }

    /// The files of a folder that count (not its subfolders).
    public func folder(_ url: URL) throws(Failure) -> [(name: String, data: Data)] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch {
            throw Failure(description: "\(url.path) cannot be read.")
        }
        var out: [(String, Data)] = []
        for name in names.sorted() where counts(name) {
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else {
                throw Failure(description: "\(url.appendingPathComponent(name).path) cannot be read.")
            }
            out.append((name, data))
        }
        return out
    }

    /// A zip file or a folder, by what is at `path`.
    public func read(path: String) throws(Failure) -> [(name: String, data: Data)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Failure(description: "\(path) does not exist.") }
        if isFolder.boolValue { return try folder(URL(fileURLWithPath: path)) }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path) cannot be read.") }
        return try unzip(data, name: (path as NSString).lastPathComponent)
    }

    /// A zip of `files`, compressed, dated `modified` so that the same content gives the same bytes.
    public static func zip(_ files: [(name: String, data: Data)], modified: Date) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for file in files {
            let data = file.data
            try archive.addEntry(with: file.name, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let out = archive.data else { throw Failure(description: "The archive could not be written.") }
        return out
    }
}

extension ArchiveFiles {
    /// An IMDF venue: a venue of a few hundred thousand features is well under the limits.
    public static let imdf = ArchiveFiles(suffixes: [".geojson", ".json"], kind: "JSON files", maxUnpackedBytes: 512 << 20,
                                          maxEntries: 200, flatten: false)
    /// A GTFS feed: a large region's stop times run to a few hundred megabytes.
    public static let gtfs = ArchiveFiles(suffixes: [".txt"], kind: "tables", maxUnpackedBytes: 1 << 30, maxEntries: 60, flatten: true)
}
