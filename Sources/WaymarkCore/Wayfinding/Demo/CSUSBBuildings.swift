/// Buildings of California State University, San Bernardino: codes, names and approximate centre
/// points (facts), and the floor count where it is known.
public struct CampusBuilding: Sendable, Hashable {
    public var code: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var floors: Int?
}

public enum CSUSBBuildings {
    /// The main campus in San Bernardino.
    public static let sanBernardino: [CampusBuilding] = [
        .init(code: "UH", name: "University Hall", latitude: 34.180428, longitude: -117.324265, floors: 5),
        .init(code: "SUE", name: "Student Union East", latitude: 34.180445, longitude: -117.323186, floors: 2),
        .init(code: "SUS", name: "Student Union South", latitude: 34.181306, longitude: -117.323460, floors: 2),
        .init(code: "SUN", name: "Student Union North", latitude: 34.182096, longitude: -117.322865, floors: 2),
        .init(code: "HC", name: "Student Health Center", latitude: 34.181404, longitude: -117.322484, floors: 1),
        .init(code: "PL", name: "John M. Pfau Library", latitude: 34.182514, longitude: -117.323915, floors: 6),
        .init(code: "CE", name: "College of Education", latitude: 34.183313, longitude: -117.321977, floors: 3),
        .init(code: "HP", name: "Health and PE Complex", latitude: 34.183043, longitude: -117.320701, floors: 3),
        .init(code: "PE", name: "Physical Education", latitude: 34.182050, longitude: -117.320165, floors: 1),
        .init(code: "JB", name: "Jack H. Brown Hall", latitude: 34.181190, longitude: -117.321422, floors: nil),
        .init(code: "PA", name: "Performing Arts", latitude: 34.181630, longitude: -117.325612, floors: 3),
        .init(code: "BK", name: "Coyote Bookstore", latitude: 34.181502, longitude: -117.326535, floors: nil),
        .init(code: "CH", name: "Chaparral Hall", latitude: 34.182388, longitude: -117.326913, floors: nil),
        .init(code: "AD", name: "Administration", latitude: 34.182898, longitude: -117.326338, floors: nil),
        .init(code: "SH", name: "Sierra Hall", latitude: 34.183057, longitude: -117.327086, floors: nil),
        .init(code: "CC", name: "Childrens Center", latitude: 34.183281, longitude: -117.327731, floors: nil),
        .init(code: "DD", name: "Univ. Center for Developmental Disabilities", latitude: 34.183436, longitude: -117.327204, floors: nil),
        .init(code: "AR", name: "Academic Research", latitude: 34.183941, longitude: -117.328136, floors: nil),
        .init(code: "UE", name: "University Enterprises", latitude: 34.184172, longitude: -117.327950, floors: nil),
        .init(code: "YC", name: "Yasuda Center for Extended Learning", latitude: 34.184860, longitude: -117.327684, floors: nil),
        .init(code: "HA", name: "HVAC Central Plant", latitude: 34.185731, longitude: -117.324404, floors: nil),
        .init(code: "CS", name: "Chemical Sciences", latitude: 34.184716, longitude: -117.324685, floors: 4),
        .init(code: "BI", name: "Biological Sciences", latitude: 34.184263, longitude: -117.323929, floors: 4),
        .init(code: "PS", name: "Physical Sciences", latitude: 34.183649, longitude: -117.324138, floors: 4),
        .init(code: "SB", name: "Social and Behavioral Sciences", latitude: 34.183606, longitude: -117.324951, floors: 6),
        .init(code: "VA", name: "Visual Arts Center", latitude: 34.184476, longitude: -117.326623, floors: 3),
        .init(code: "TC", name: "Temp Classrooms", latitude: 34.184634, longitude: -117.323517, floors: nil),
        .init(code: "TO", name: "Temp Offices", latitude: 34.184530, longitude: -117.323261, floors: nil),
        .init(code: "RF", name: "Student Rec and Wellness Center", latitude: 34.181311, longitude: -117.318591, floors: nil),
        .init(code: "CV", name: "Coyote Village", latitude: 34.180165, longitude: -117.321087, floors: nil),
        .init(code: "CCD", name: "Coyote Commons", latitude: 34.180413, longitude: -117.320197, floors: 2),
        .init(code: "SV", name: "Serrano Village", latitude: 34.179473, longitude: -117.322786, floors: nil),
        .init(code: "AV", name: "Arrowhead Village", latitude: 34.178149, longitude: -117.322417, floors: nil),
        .init(code: "AS", name: "Administration Services", latitude: 34.185992, longitude: -117.329197, floors: nil),
        .init(code: "PW", name: "Plant/Central Warehouse", latitude: 34.186669, longitude: -117.329941, floors: nil),
        .init(code: "FM", name: "Facilities Planning and Management", latitude: 34.187024, longitude: -117.329260, floors: nil),
        .init(code: "AF", name: "Auto Fleet Services", latitude: 34.187271, longitude: -117.328747, floors: nil),
        .init(code: "ES", name: "Environmental Health and Services", latitude: 34.187015, longitude: -117.328469, floors: nil),
        .init(code: "UP", name: "University Police", latitude: 34.187434, longitude: -117.328085, floors: 1),
        .init(code: "OB", name: "Murillo Family Observatory", latitude: 34.187034, longitude: -117.319222, floors: nil),
        .init(code: "UV", name: "University Village", latitude: 34.176754, longitude: -117.323379, floors: nil),
        .init(code: "IC1", name: "Information Center", latitude: 34.179666, longitude: -117.326001, floors: nil),
        .init(code: "IC2", name: "Information Center 2", latitude: 34.179091, longitude: -117.319437, floors: nil),
        .init(code: "PKW", name: "Parking Structure West", latitude: 34.186486, longitude: -117.325494, floors: nil),
        .init(code: "PKE", name: "Parking Structure East", latitude: 34.184008, longitude: -117.320266, floors: nil),
    ]

    /// The Palm Desert campus, 37500 Cook Street, Palm Desert: positions are approximate.
    public static let palmDesert: [CampusBuilding] = [
        .init(code: "RG", name: "Mary Stuart Rogers Gateway Building", latitude: 33.76360, longitude: -116.35500, floors: 2),
        .init(code: "IW", name: "Indian Wells Center for Educational Excellence", latitude: 33.76420, longitude: -116.35420, floors: 2),
        .init(code: "HS", name: "Health Sciences Building", latitude: 33.76300, longitude: -116.35420, floors: 2),
        .init(code: "PDSC", name: "Palm Desert Student Center", latitude: 33.76420, longitude: -116.35560, floors: 1),
    ]
}
