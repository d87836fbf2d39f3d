"""The twenty-ninth team's held-out domains (blind, docs only): a parcel carrier, mobile telecom care, a hotel front desk, a gym desk."""
