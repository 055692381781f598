import Foundation
import ZIPFoundation

/// An IMDF archive's files as bytes: read from a zip or a folder, written to a zip.
public enum IMDFFiles {
    /// Unpacked, an archive may hold at most this much: a venue of a few hundred thousand
    /// features is well under it, a zip bomb is not.
    public static let maxUnpackedBytes = 512 << 20
    public static let maxEntries = 200

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The `.json`/`.geojson` files of a zip archive (in any folder of it).
    public static func unzip(_ data: Data, name: String = "the archive") throws(Failure) -> [(name: String, data: Data)] {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw Failure(description: "\(name) is not a zip archive.")
        }
        var out: [(String, Data)] = []
        var total = 0, entries = 0
        for entry in archive where entry.type == .file {
            let path = entry.path
            let lower = path.lowercased()
            guard lower.hasSuffix(".geojson") || lower.hasSuffix(".json") else { continue }
            entries += 1
            guard entries <= maxEntries else { throw Failure(description: "\(name) holds more than \(maxEntries) JSON files.") }
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
            out.append((path, content))
        }
        return out
    }

    /// The `.json`/`.geojson` files of a folder (not its subfolders).
    public static func folder(_ url: URL) throws(Failure) -> [(name: String, data: Data)] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch {
            throw Failure(description: "\(url.path) cannot be read.")
        }
        var out: [(String, Data)] = []
        for name in names.sorted() where name.lowercased().hasSuffix(".geojson") || name.lowercased().hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else {
                throw Failure(description: "\(url.appendingPathComponent(name).path) cannot be read.")
            }
            out.append((name, data))
        }
        return out
    }

    /// A zip file or a folder, by what is at `path`.
    public static func read(path: String) throws(Failure) -> [(name: String, data: Data)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Failure(description: "\(path) does not exist.") }
        if isFolder.boolValue { return try folder(URL(fileURLWithPath: path)) }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path) cannot be read.") }
        return try unzip(data, name: (path as NSString).lastPathComponent)
    }

    /// A zip of `files`, compressed, dated `modified` so that the same venue gives the same bytes.
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
