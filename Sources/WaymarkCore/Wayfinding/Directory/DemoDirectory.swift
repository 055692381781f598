/// A few hundred made-up staff for the demo campuses, in the offices of the generated plans.
/// Names are drawn from common given names and surnames; nobody real is meant.
public enum DemoDirectory {
    static let given = ["Maria", "James", "Linda", "Robert", "Patricia", "Michael", "Jennifer", "David", "Elizabeth",
                        "Jose", "Susan", "Daniel", "Jessica", "Kevin", "Sarah", "Thomas", "Karen", "Anthony", "Nancy",
                        "Mark", "Lisa", "Steven", "Angela", "Paul", "Michelle", "Andrew", "Laura", "Joshua", "Emily",
                        "Kenneth", "Rebecca", "Brian", "Sharon", "Luis", "Cynthia", "Eric", "Amy", "Ahmed", "Mei",
                        "Priya", "Hiroshi", "Ngozi", "Olga", "Rafael", "Sofia", "Tuan", "Yolanda", "Gerard", "Samuel"]
    static let family = ["Garcia", "Smith", "Martinez", "Johnson", "Lopez", "Williams", "Hernandez", "Brown", "Gonzalez",
                         "Jones", "Perez", "Miller", "Sanchez", "Davis", "Ramirez", "Wilson", "Torres", "Anderson",
                         "Flores", "Taylor", "Rivera", "Thomas", "Nguyen", "Moore", "Kim", "Jackson", "Patel", "Chen",
                         "Lee", "Morales", "Reyes", "Cruz", "Ortiz", "Gutierrez", "Chavez", "Ramos", "Okafor", "Tanaka",
                         "Ivanova", "Haddad", "Sudhakar", "Concepcion", "Au", "Xu", "Fletes", "Nakamura", "Wu", "Singh"]
    static let titles = ["Professor", "Associate Professor", "Assistant Professor", "Lecturer", "Department Chair",
                         "Academic Advisor", "Administrative Coordinator", "Lab Coordinator"]
    static let departments: [String: [String]] = [
        "JB": ["Accounting and Finance", "Information and Decision Sciences", "Marketing", "Public Administration"],
        "SB": ["Psychology", "Sociology", "Anthropology", "Criminal Justice", "Political Science"],
        "UH": ["English", "World Languages", "Communication Studies", "History"],
        "BI": ["Biology", "Nursing"],
        "CS": ["Chemistry and Biochemistry"],
        "PS": ["Physics", "Mathematics", "Geological Sciences"],
        "CE": ["Teacher Education", "Educational Leadership", "Special Education"],
        "PA": ["Music", "Theatre Arts"],
        "VA": ["Art and Design"],
        "HP": ["Kinesiology", "Health Science"],
        "PL": ["Library Services", "Computer Science and Engineering"],
        "RG": ["Nursing", "Business Administration"],
        "IW": ["Teacher Education", "Psychology"],
        "HS": ["Health Science", "Nursing"],
    ]

    /// Staff in the offices of `venue`'s generated plans, `perDepartment` people per department,
    /// each in an office of the building where the department sits.
    public static func staff(for venue: DemoVenue, features: [IMDFFeature]? = nil, perDepartment: Int = 12) -> [StaffMember] {
        var out: [StaffMember] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let offices = Dictionary(grouping: (features ?? venue.features()).filter { $0.type == .unit && $0.category == "office" && $0.altName == nil },
                                 by: { String(($0.name ?? "").prefix { $0 != "-" }) })
        for b in venue.buildings {
            guard let depts = departments[b.code], let rooms = offices[b.code], !rooms.isEmpty else { continue }
            for dept in depts {
                for k in 0..<perDepartment {
                    let name = "\(given[next(given.count)]) \(family[next(family.count)])"
                    let room = rooms[next(rooms.count)].name ?? ""
                    let email = SearchText.words(name).joined(separator: ".") + "@example.edu"
                    let days = ["Monday and Wednesday", "Tuesday and Thursday", "Monday and Friday", "Wednesday"][next(4)]
                    let hour = 9 + next(7)
                    out.append(.init(name: name, title: k == 0 ? "Department Chair" : titles[next(titles.count)], department: dept,
                                     building: b.code, room: room, email: email,
                                     officeHours: "\(days), \(hour):00–\(hour + 1):30"))
                }
            }
        }
        return out
    }
}
