import WaymarkCore

/// A travel estimator the server readies before planning. The planner is synchronous and cannot
/// wait on a network, so an estimator that needs one fetches its figures here first.
protocol PreparableEstimator: TravelEstimator {
    /// Fetches what `estimate` will need between these places by these modes. Never fails: what
    /// could not be fetched is estimated another way.
    func prepare(_ places: [Coordinate], modes: Set<TravelMode>) async
}

extension GroundDistanceEstimator: PreparableEstimator {
    /// Nothing to fetch: the ground estimate is worked out on the spot.
    func prepare(_ places: [Coordinate], modes: Set<TravelMode>) async {}
}
