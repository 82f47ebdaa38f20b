"""Load-balancing exercises; this session's module is lb.least_conn."""
