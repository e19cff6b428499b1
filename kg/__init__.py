"""divkg: a knowledge graph of classical Chinese divination manuals."""
