/// Category values of IMDF that Waymark reads meaning from.
public enum IMDFCategories {
    /// Unit categories of the standard; others are kept but read as "unspecified".
    public static let unit: Set<String> = [
        "auditorium", "brick", "classroom", "column", "concrete", "conferenceroom", "drywall",
        "elevator", "escalator", "fieldofplay", "firstaid", "fitnessroom", "foodservice", "footbridge",
        "glass", "huddleroom", "kitchen", "laboratory", "library", "lobby", "lounge", "mailroom",
        "mothersroom", "movietheater", "movingwalkway", "nonpublic", "office", "opentobelow", "parking",
        "phoneroom", "platform", "privatelounge", "ramp", "recreation", "restroom", "restroom.family",
        "restroom.female", "restroom.female.wheelchair", "restroom.male", "restroom.male.wheelchair",
        "restroom.transgender", "restroom.transgender.wheelchair", "restroom.unisex",
        "restroom.unisex.wheelchair", "restroom.wheelchair", "road", "room", "serverroom", "shower",
        "smokingarea", "stairs", "steps", "storage", "structure", "terrace", "theater",
        "unenclosedarea", "unspecified", "vegetation", "waitingroom", "walkway", "water", "wood",
    ]

    /// Units a person cannot walk into (walls, columns, voids, water).
    public static let solid: Set<String> = [
        "brick", "column", "concrete", "drywall", "glass", "opentobelow", "structure", "vegetation", "water", "wood",
    ]

    /// Units whose purpose is passing through: they connect to every unit they touch, door or not.
    public static let passage: Set<String> = [
        "walkway", "lobby", "footbridge", "unenclosedarea", "platform", "movingwalkway", "ramp", "waitingroom",
    ]

    /// Units that join levels, and relationship categories that do.
    public static let vertical: Set<String> = ["stairs", "steps", "elevator", "escalator", "ramp", "movingwalkway"]

    public static func isRestroom(_ category: String) -> Bool { category == "restroom" || category.hasPrefix("restroom.") }
}
