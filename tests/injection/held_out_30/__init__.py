"""The thirtieth team's held-out domains (blind, docs only): a treasury desk, an IT helpdesk, event ticketing, SaaS billing."""
